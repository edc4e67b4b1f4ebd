import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/** Controls the Members and Settings areas share: an on/off switch and a destructive action asked twice. */

/** A labelled on/off switch (role=switch), toggled with a click, Space or Enter. */
export function Switch({
  label,
  hint,
  on,
  disabled,
  onChange,
}: {
  label: string;
  hint?: string;
  on: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="switch-row">
      <div>
        <span className="switch-label" id={`${id}-label`}>
          {label}
        </span>
        {hint && (
          <p className="hint" id={`${id}-hint`}>
            {hint}
          </p>
        )}
      </div>
      <button
        type="button"
        role="switch"
        className="switch"
        aria-checked={on}
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        disabled={disabled}
        onClick={() => onChange(!on)}
      >
        <span className="switch-state">{on ? "On" : "Off"}</span>
      </button>
    </div>
  );
}

/**
 * A destructive action asked twice, inside the page: the first button shows the question with
 * the real action (which takes the focus) and Cancel (or Escape), which gives the focus back.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const id = useId();
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (returnFocus.current) trigger.current?.focus();
    returnFocus.current = false;
  }, [asking]);
  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };
  if (!asking) {
    return (
      <button ref={trigger} type="button" className="danger small" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-labelledby={`${id}-question`} onKeyDown={(event) => event.key === "Escape" && cancel()}>
      <span id={`${id}-question`}>{question}</span>
      <button
        ref={confirm}
        type="button"
        className="danger-solid small"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="secondary small" onClick={cancel}>
        Cancel
      </button>
    </span>
  );
}
