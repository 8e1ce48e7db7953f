import { useId, useState } from 'preact/hooks';
import { texts } from './texts';

/** A value to give elsewhere (a webhook's URL, a secret shown once): readable, selected on focus, copied in one click. */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div class="copyable">
      <label for={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
      <button type="button" aria-label={texts.copy.of(label)} onClick={() => void copy()}>
        {texts.copy.button}
      </button>
      <span role="status">{copied ? texts.copy.done : ''}</span>
    </div>
  );
}
