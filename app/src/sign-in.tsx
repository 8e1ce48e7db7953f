import { useState } from 'preact/hooks';
import { api, messageOf, setTabSession } from './api';
import { PasswordReset } from './password-reset';
import { tabSessionOf, type TabSession } from './session';
import { NewPasswordField } from './new-password-field';
import { texts } from './texts';

/** The e-mail and provisional password the API accepted, asking for the person's own (docs/api.md#sign-in). */
type Provisional = { email: string; password: string };

/** The API's answer to a provisional password without `new_password`: a 409 whose `details` name that field. */
const asksForNewPassword = (status: number, error: unknown): boolean =>
  status === 409 &&
  (error as { error?: { details?: { field?: unknown } } } | undefined)?.error?.details?.field === 'new_password';

/**
 * Sign-in: e-mail and password to `POST /session`; a refusal is the API's message, read out (role="alert"). A
 * provisional password (the invitation's) is not a refusal: its 409 leads to the next step, « Choisissez votre mot de
 * passe », where the person chooses theirs, sent with the provisional one (`new_password`). « Mot de passe oublié »
 * leads to the reset by code.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (session: TabSession) => void }) {
  const [failure, setFailure] = useState<string>();
  const [pending, setPending] = useState(false);
  const [provisional, setProvisional] = useState<Provisional>();
  const [resetting, setResetting] = useState(false);
  const [status, setStatus] = useState<string>();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const credentials = provisional ?? { email: String(form.get('email')), password: String(form.get('password')) };
    const newPassword = form.get('new_password');
    setPending(true);
    const { data, error, response } = await api.POST('/session', {
      body: { ...credentials, ...(typeof newPassword === 'string' ? { new_password: newPassword } : {}) },
    });
    setPending(false);
    if (!data) {
      if (provisional !== undefined || !asksForNewPassword(response.status, error)) return setFailure(messageOf(error));
      setFailure(undefined);
      return setProvisional(credentials);
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
  if (provisional) {
    return (
      <main>
        <h1>{texts.signIn.choose.heading}</h1>
        <form onSubmit={(event) => void submit(event)}>
          <p>{texts.signIn.choose.intro(provisional.email)}</p>
          {/* The account a password manager saves the new password under. */}
          <input type="email" autocomplete="username" value={provisional.email} readOnly hidden />
          <NewPasswordField label={texts.signIn.newPassword} focused />
          <button type="submit" disabled={pending}>
            {pending ? texts.signIn.pending : texts.signIn.choose.submit}
          </button>
          {failure && <p role="alert">{failure}</p>}
        </form>
      </main>
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
