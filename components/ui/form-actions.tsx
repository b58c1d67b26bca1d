import { Alert } from './alert';
import { Button } from './button';

/** A form's error, its submit button and Cancel: the end of every settings editor form. */
export function FormActions({
  error,
  pending,
  submit,
  onCancel,
}: {
  error?: { message: string } | null;
  pending: boolean;
  submit: string;
  onCancel: () => void;
}) {
  return (
    <>
      {error ? <Alert tone="error">{error.message}</Alert> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {submit}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </>
  );
}
