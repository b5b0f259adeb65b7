// The OpenID provider's two pages: its sign-in form and the page that stops a request it cannot send back.
// Everything a request brought in is escaped.

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

const HEAD = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`

/** With a control token set, the form asks for it: whoever cannot drive /__mock cannot sign in as anyone either. */
const TOKEN_FIELD = `<p><label for="control_token">Control token</label><br><input id="control_token" name="control_token" type="password" required autocomplete="off"></p>
`

/** The sign-in form: the person says who they are; `request` names the checked authorization request. */
export function renderSignInPage(input: {
  requestId: string
  loginHint?: string
  askToken: boolean
}): string {
  const hint = input.loginHint ? ` value="${escapeHtml(input.loginHint)}"` : ''
  return `${HEAD}
<title>Sign in with Mock Identity</title></head>
<body>
<main>
<h1>Mock Identity</h1>
<p>The mock server plays the external identity provider. Choose who you are.</p>
<form method="post" action="/idp/authorize">
<p><label for="email">E-mail</label><br><input id="email" name="email" type="email" required autocomplete="email"${hint}></p>
<p><label for="name">Name</label><br><input id="name" name="name" type="text" autocomplete="name"></p>
${input.askToken ? TOKEN_FIELD : ''}<input type="hidden" name="request" value="${escapeHtml(input.requestId)}">
<p><button type="submit">Continue</button></p>
</form>
</main>
</body>
</html>
`
}

/** A request the provider will not send back anywhere (RFC 6749 section 4.1.2.1): said to the person, here. */
export function renderErrorPage(message: string): string {
  return `${HEAD}
<title>Sign-in request refused</title></head>
<body>
<main>
<h1>Sign-in request refused</h1>
<p>${escapeHtml(message)}</p>
<p>Go back to the application you came from and start again.</p>
</main>
</body>
</html>
`
}
