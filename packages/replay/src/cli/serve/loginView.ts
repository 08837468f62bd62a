import { markup } from '../report/html.js';
import { consolePage } from './consolePage.js';

/** The sign-in page; `failed` says the last token was not accepted. */
export function loginView(failed: boolean): string {
  return consolePage(
    { title: 'sign in' },
    markup`<h1>agentlog console</h1>
${failed && markup`<p class="notice">That token is not accepted.</p>`}
<form method="post" action="/login" class="decision">
<label for="token">Reviewer token</label>
<input type="password" id="token" name="token" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}
