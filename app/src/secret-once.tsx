import { CopyableValue } from './copyable-value';
import { texts } from './texts';

/**
 * A secret the API shows once (a key's value, the webhook's token, a subscription's signing secret): readable and
 * copyable with a warning until the person dismisses it; from then on the page holds it nowhere
 * (docs/api.md#settings-page).
 */
export function SecretOnce({ label, value, onDismiss }: { label: string; value: string; onDismiss: () => void }) {
  return (
    <div class="secret" role="group" aria-label={label}>
      <p>
        <strong>{texts.secret.warning}</strong>
      </p>
      <CopyableValue label={label} value={value} />
      <button type="button" onClick={onDismiss}>
        {texts.secret.dismiss}
      </button>
    </div>
  );
}
