import { useId, useState } from 'preact/hooks';
import { texts } from './texts';

/**
 * A secret the API shows once (a key's value, the webhook's token, a subscription's signing secret): readable and
 * copyable with a warning until the person dismisses it; from then on the page holds it nowhere (decisions 7.3).
 */
export function SecretOnce({ label, value, onDismiss }: { label: string; value: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div class="secret" role="group" aria-label={label}>
      <p>
        <strong>{texts.secret.warning}</strong>
      </p>
      <label for={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
      <button type="button" onClick={() => void copy()}>
        {texts.secret.copy}
      </button>
      <p role="status">{copied ? texts.secret.copied : ''}</p>
      <button type="button" onClick={onDismiss}>
        {texts.secret.dismiss}
      </button>
    </div>
  );
}
