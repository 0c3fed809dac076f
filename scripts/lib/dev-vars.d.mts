export function devVars(): Record<string, string>
export function localDohSettings(): Record<string, string>
