import { useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { isLocalServer } from './local-server';
import { NewPasswordField } from './new-password-field';
import { texts } from './texts';

/**
 * « Mot de passe oublié » (docs/api.md#sign-in): the e-mail to `POST /password-reset`, which has the identity provider
 * e-mail a code; then the code and a new password to `POST /password-reset/confirm`. The API answers alike whether
 * the address is known or not; its refusals (a wrong or expired code, a weak password) are shown as sent. On
 * `npm start` no e-mail leaves the machine: the screen says the code is in the server's terminal, which prints it.
 */
export function PasswordReset({ onDone }: { onDone: (status: string) => void }) {
  const local = isLocalServer(location);
  const [email, setEmail] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const start = async (event: SubmitEvent) => {
    event.preventDefault();
    const address = String(new FormData(event.currentTarget as HTMLFormElement).get('email'));
    const { error, response } = await api.POST('/password-reset', { body: { email: address } });
    if (!response.ok) return setFailure(messageOf(error));
    setFailure(undefined);
    setEmail(address);
  };

  const confirm = async (event: SubmitEvent) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const body = {
      email: email ?? '',
      code: String(fields.get('code')),
      new_password: String(fields.get('new_password')),
    };
    const { error, response } = await api.POST('/password-reset/confirm', { body });
    if (!response.ok) return setFailure(messageOf(error));
    onDone(texts.reset.done);
  };

  return (
    <main>
      <h1>{texts.reset.heading}</h1>
      {email === undefined ? (
        <form onSubmit={(event) => void start(event)}>
          <label for="reset-email">{texts.signIn.email}</label>
          <p class="hint" id="reset-email-where">
            {local ? texts.reset.whereLocally : texts.reset.where}
          </p>
          <input
            id="reset-email"
            name="email"
            type="email"
            autocomplete="username"
            aria-describedby="reset-email-where"
            required
          />
          <button type="submit">{texts.reset.send}</button>
        </form>
      ) : (
        <form onSubmit={(event) => void confirm(event)}>
          <p role="status">{local ? texts.reset.sentLocally(email) : texts.reset.sent(email)}</p>
          <label for="reset-code">{texts.reset.code}</label>
          <input id="reset-code" name="code" autocomplete="one-time-code" required />
          <NewPasswordField label={texts.signIn.newPassword} />
          <button type="submit">{texts.reset.confirm}</button>
        </form>
      )}
      {failure && <p role="alert">{failure}</p>}
      <button type="button" onClick={() => onDone('')}>
        {texts.reset.back}
      </button>
    </main>
  );
}
