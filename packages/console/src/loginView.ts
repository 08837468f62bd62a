import { markup } from './report/html.js';
import { consolePage } from './consolePage.js';

/**
 * The sign-in page; `failed` says the last token was not accepted, `waitSeconds` that this client
 * sent too many wrong tokens and must wait that long before it may try again.
 */
export function loginView(failed: boolean, waitSeconds?: number): string {
  return consolePage(
    { title: 'sign in' },
    markup`<h1>agentlog console</h1>
${failed && markup`<p class="notice" role="alert">That token is not accepted.</p>`}
${
  waitSeconds !== undefined &&
  markup`<p class="notice" role="alert" id="too-many">Too many wrong tokens from this address: try again in ${waitSeconds} s.</p>`
}
<form method="post" action="/login" class="decision">
<label for="token">Reviewer token</label>
<input type="password" id="token" name="token" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}
