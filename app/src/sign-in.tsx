import { useState } from 'preact/hooks';
import { api, messageOf, setTabSession } from './api';
import { PasswordReset } from './password-reset';
import { tabSessionOf, type TabSession } from './session';
import { NewPasswordField } from './new-password-field';
import { texts } from './texts';

/**
 * Sign-in: e-mail and password to `POST /session`; a refusal is the API's message, read out (role="alert"). A
 * temporary password (the invitation's) is answered 409: the person then chooses a new one, sent with it
 * (`new_password`). « Mot de passe oublié » leads to the reset by e-mailed code.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (session: TabSession) => void }) {
  const [failure, setFailure] = useState<string>();
  const [pending, setPending] = useState(false);
  const [needsNewPassword, setNeedsNewPassword] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [status, setStatus] = useState<string>();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const newPassword = form.get('new_password');
    setPending(true);
    const { data, error, response } = await api.POST('/session', {
      body: {
        email: String(form.get('email')),
        password: String(form.get('password')),
        ...(typeof newPassword === 'string' ? { new_password: newPassword } : {}),
      },
    });
    setPending(false);
    if (!data) {
      if (response.status === 409) setNeedsNewPassword(true);
      return setFailure(messageOf(error));
    }
    const session = tabSessionOf(data, Date.now());
    setTabSession(session);
    onSignedIn(session);
  };

  if (resetting) {
    return (
      <PasswordReset
        onDone={(done) => {
          setResetting(false);
          setStatus(done);
        }}
      />
    );
  }
  return (
    <main>
      <h1>{texts.signIn.heading}</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label for="email">{texts.signIn.email}</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">{texts.signIn.password}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        {needsNewPassword && (
          <>
            <NewPasswordField label={texts.signIn.newPassword} />
          </>
        )}
        <button type="submit" disabled={pending}>
          {pending ? texts.signIn.pending : texts.signIn.submit}
        </button>
        <p role="status">{status}</p>
        {failure && <p role="alert">{failure}</p>}
      </form>
      <button type="button" onClick={() => setResetting(true)}>
        {texts.signIn.forgotten}
      </button>
    </main>
  );
}
