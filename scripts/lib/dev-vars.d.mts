export function devVars(): Record<string, string>
export function localDohSettings(): Record<string, string>
export function localBuilderSettings(): Record<string, string>
export function localFeedSettings(): Record<string, string>
export function localZoneSettings(): Record<string, string>
