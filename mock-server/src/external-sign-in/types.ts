// External sign-in, as its operations see it: the identity provider (where to send the browser, who it vouches for
// on the way back). The provider is an OpenID provider reached through openid-client (relying-party.ts): the one the
// mock server plays at /idp outside production mode, or one configured with --oidc-issuer; production mode has none
// by default, so no one signs in as whatever address they type (docs/security/surface.md,
// docs/decisions/022-openid-provider.md).

export interface ExternalIdentity {
  email: string
  name: string
}

/** What a started sign-in keeps on the server until its callback: never sent to the browser. */
export interface PendingSignIn {
  issuer: string
  redirectUri: string
  nonce: string
  codeVerifier: string
}

export interface ExternalSignInProvider {
  /**
   * Where the browser goes to sign in (`redirectUri`, absolute, is where the provider sends it back with `code` and
   * `state`), and what to keep for the callback.
   */
  start(input: {
    state: string
    redirectUri: string
    origin: string
  }): Promise<{ url: string; pending: PendingSignIn }>
  /** Who the provider vouches for; null when it refuses the code (unknown, used, expired, another client's). */
  finish(input: { code: string; state: string; pending: PendingSignIn }): Promise<ExternalIdentity | null>
}
