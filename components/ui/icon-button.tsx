import type { ReactNode } from 'react';

/** A small button that shows only an icon; its label is read out and shown on hover. */
export function IconButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick(): void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className="inline-flex size-7 items-center justify-center rounded text-slate-600 hover:bg-slate-100 disabled:text-slate-300"
    >
      {children}
    </button>
  );
}
