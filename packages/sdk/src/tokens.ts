/**
 * @module API tokens: user tokens (/user/tokens) or, with an account id, account tokens.
 */
import type { Transport } from './http.ts'
import { collect, paginate } from './paginate.ts'
import type { Token, TokenPolicy } from './types.ts'

export interface TokenScope {
  /** Account tokens of this account instead of user tokens. */
  accountId?: string
}

export class Tokens {
  private readonly t: Transport

  constructor(t: Transport) {
    this.t = t
  }

  private base(scope: TokenScope): string {
    return scope.accountId ? `/accounts/${scope.accountId}/tokens` : '/user/tokens'
  }

  /** Creates a token; the answer's `value` is the secret, shown only once. */
  create(
    input: { name: string; policies: TokenPolicy[]; expires_on?: string },
    scope: TokenScope = {}
  ): Promise<Token> {
    return this.t.result({ method: 'POST', path: this.base(scope), json: input })
  }

  /** Every token, page after page (the API answers at most 50 a page). */
  list(scope: TokenScope = {}): Promise<Token[]> {
    return collect(
      paginate((page) =>
        this.t.request<Token[]>({
          method: 'GET',
          path: this.base(scope),
          query: { page, per_page: 50 },
        })
      )
    )
  }

  get(id: string, scope: TokenScope = {}): Promise<Token> {
    return this.t.result({ method: 'GET', path: `${this.base(scope)}/${id}` })
  }

  delete(id: string, scope: TokenScope = {}): Promise<{ id: string }> {
    return this.t.result({ method: 'DELETE', path: `${this.base(scope)}/${id}` })
  }

  /** Checks the client's own token. */
  verify(): Promise<{ id: string; status: string }> {
    return this.t.result({ method: 'GET', path: '/user/tokens/verify' })
  }

  permissionGroups(): Promise<{ id: string; name: string; scopes: string[] }[]> {
    return this.t.result({ method: 'GET', path: '/user/tokens/permission_groups' })
  }
}
