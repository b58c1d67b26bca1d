import { CopyButton } from '@/components/ui/copy-button';

/** A value to paste elsewhere (a webhook address, a verify token), with its copy button. */
export function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="space-y-1">
      <p className="text-xs font-medium text-slate-700">{label}</p>
      <div className="flex items-start gap-2">
        <code className="block flex-1 break-all rounded bg-white p-2 text-xs" data-testid={testId}>
          {value}
        </code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}
