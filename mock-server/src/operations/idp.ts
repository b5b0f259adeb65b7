// The identity provider the mock server plays for the external sign-in: a sign-in page whose form
// sends the browser back to the app's /callback with a one-time code bound to the app's `state`.
import type { operations } from '#contracts/control.gen.ts'
import { safeEqual } from '../domain/crypto.ts'
import { addCodeToRedirect } from '../domain/external-codes.ts'
import { type OperationsContext, isSafeRedirectPath, validationFailed } from './context.ts'
import type { OperationTable } from './types.ts'

type IdpOperations = Pick<operations, 'showIdpSignIn' | 'submitIdpSignIn'>

function escapeHtml(value: string): string {
  const entities: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  }
  return value.replace(/[&<>"']/g, (character) => entities[character]!)
}

/** With a control token set, the form asks for it: whoever cannot drive /__mock cannot sign in as anyone either. */
const TOKEN_FIELD = `<p><label for="control_token">Control token</label><br><input id="control_token" name="control_token" type="password" required autocomplete="off"></p>
`

function renderPage(state: string, redirect: string, askToken: boolean): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with Mock Identity</title></head>
<body>
<main>
<h1>Mock Identity</h1>
<p>The mock server plays the external identity provider. Choose who you are.</p>
<form method="post" action="/idp/authorize">
<p><label for="email">E-mail</label><br><input id="email" name="email" type="email" required autocomplete="email"></p>
<p><label for="name">Name</label><br><input id="name" name="name" type="text" autocomplete="name"></p>
${askToken ? TOKEN_FIELD : ''}<input type="hidden" name="state" value="${escapeHtml(state)}">
<input type="hidden" name="redirect_uri" value="${escapeHtml(redirect)}">
<p><button type="submit">Continue</button></p>
</form>
</main>
</body>
</html>
`
}

export function createIdpOperations({ idp, controlToken }: OperationsContext): OperationTable<IdpOperations> {
  return {
    showIdpSignIn({ query }) {
      if (!isSafeRedirectPath(query.redirect_uri))
        return validationFailed('redirect_uri', 'Use a path on this site.')
      return { status: 200, body: renderPage(query.state, query.redirect_uri, controlToken !== undefined) }
    },
    async submitIdpSignIn({ body }) {
      if (controlToken !== undefined && !safeEqual(body.control_token ?? '', controlToken)) {
        return {
          status: 401,
          body: {
            error: 'control_token_required',
            message: 'This server has a control token: enter it to sign in at its identity provider.',
          },
        }
      }
      if (!isSafeRedirectPath(body.redirect_uri))
        return validationFailed('redirect_uri', 'Use a path on this site.')
      // Production mode leaves these routes out (openapi-docs.ts, mockOnly), so idp is there whenever this runs.
      if (!idp)
        throw new Error('Failed to sign in at the mock identity provider: it is off in production mode.')
      const code = await idp.issueCode({
        email: body.email,
        state: body.state,
        ...(body.name !== undefined && { name: body.name }),
      })
      return {
        status: 302,
        headers: { location: addCodeToRedirect(body.redirect_uri, { code, state: body.state }) },
      }
    },
  }
}
