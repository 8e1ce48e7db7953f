import { useState } from 'preact/hooks';
import { api, currentSession, messageOf } from './api';
import { NewPasswordField } from './new-password-field';
import { texts } from './texts';

/**
 * « Mon compte », whatever the role: change one's password (`POST /session/password`: this session stays, the
 * person's other sessions end); signing out is the header's button, on every screen.
 */
export function Account() {
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const change = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    setStatus(undefined);
    const { error, response } = await api.POST('/session/password', {
      body: { password: String(fields.get('password')), new_password: String(fields.get('new_password')) },
    });
    if (!response.ok) return setFailure(messageOf(error));
    setFailure(undefined);
    setStatus(texts.account.changed);
    form.reset();
  };

  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">{texts.account.heading}</h2>
      <h3>{texts.account.passwordHeading}</h3>
      <form onSubmit={(event) => void change(event)}>
        {/* Password managers file the new password under this account. */}
        <input type="email" name="username" autocomplete="username" value={currentSession()?.email} readOnly hidden />
        <label for="current-password">{texts.account.current}</label>
        <input id="current-password" name="password" type="password" autocomplete="current-password" required />
        <NewPasswordField label={texts.account.next} />
        <button type="submit">{texts.account.submit}</button>
      </form>
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
      <p>{texts.account.signOut}</p>
    </section>
  );
}
