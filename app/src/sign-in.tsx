import { useState } from 'preact/hooks';
import { api, messageOf, setTabSession } from './api';
import { tabSessionOf, type TabSession } from './session';
import { texts } from './texts';

/** Sign-in: e-mail and password to `POST /session`; a refusal is the API's message, read out (role="alert"). */
export function SignIn({ onSignedIn }: { onSignedIn: (session: TabSession) => void }) {
  const [failure, setFailure] = useState<string>();
  const [pending, setPending] = useState(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setPending(true);
    const { data, error } = await api.POST('/session', {
      body: { email: String(form.get('email')), password: String(form.get('password')) },
    });
    setPending(false);
    if (!data) return setFailure(messageOf(error));
    const session = tabSessionOf(data, Date.now());
    setTabSession(session);
    onSignedIn(session);
  };

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
        {failure && <p role="alert">{failure}</p>}
      </form>
    </main>
  );
}
