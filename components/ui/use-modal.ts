import { useEffect, useId, useRef } from 'react';

/** A `<dialog>` shown as a modal as soon as it mounts (Escape fires its `cancel`), and the id its title takes. */
export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return { dialog, titleId };
}
