import { useEffect, useId, useRef } from 'preact/hooks';
import { texts } from './texts';

/** The members' pool's minimum length (infra/cdk/constructs/user-pool.ts), checked by the browser before sending. */
const minimumLength = 12;

/**
 * A new password's field (`new_password`), labelled, the pool's rules read out with it, offered by password managers
 * as a new password: the first sign-in's, the reset's and « Mon compte »'s. `focused`: the field is the first of a
 * step that has just appeared, and takes the focus (a document honours `autofocus` once, not in a step shown later).
 */
export function NewPasswordField({ label, focused = false }: { label: string; focused?: boolean }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focused) field.current?.focus();
  }, []);
  return (
    <>
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-rules`}>
        {texts.signIn.passwordRules}
      </p>
      <input
        ref={field}
        id={id}
        name="new_password"
        type="password"
        autocomplete="new-password"
        minLength={minimumLength}
        aria-describedby={`${id}-rules`}
        required
      />
    </>
  );
}
