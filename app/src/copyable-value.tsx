import { useId, useState } from 'preact/hooks';
import { texts } from './texts';
import type { Named } from './workspace-names';

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

/**
 * An id a person copies into an integration (a tag's for a lead's tags, a member's for a setter): shown as written, and
 * a button whose accessible name says what it copies (`label`).
 */
export function CopyableId({ id, label }: { id: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(id);
    setCopied(true);
  };
  return (
    <span class="copyable-id">
      <code>{id}</code>
      <button
        type="button"
        class="secondary"
        aria-label={copied ? texts.copy.doneOf(label) : label}
        onClick={() => void copy()}
      >
        {copied ? texts.copy.doneShort : texts.copy.button}
      </button>
    </span>
  );
}

/** A name as `WorkspaceNames` gives it: the name, or its fallback in words with the id to copy. */
export function ShownName({ named }: { named: Named }) {
  if (named.missingId === undefined) return <>{named.text}</>;
  return (
    <span class="missing-name">
      {named.text} <CopyableId id={named.missingId} label={named.copyLabel ?? texts.copy.button} />
    </span>
  );
}
