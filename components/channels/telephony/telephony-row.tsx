'use client';

import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { telephonyVoiceInput } from '@/lib/channels/connect-inputs';
import { ConnectForm, useConnectValues } from '../connect-form';
import { Copyable } from '../copyable';

/** What the Channels tab gets of a telephony channel (server/channels/telephony, `telephonyView`). */
export interface TelephonyView {
  settings: {
    vendor: string;
    language: string;
    voice: string;
    transferNumber: string;
    transcribeTransfers: boolean;
    keepRecordings: boolean;
  };
  webhook: { callHook: string; statusHook: string };
}

/** The addresses to enter as the jambonz application's calling and call status webhooks. */
export function TelephonyWebhooks({
  webhook,
  testId,
}: {
  webhook: TelephonyView['webhook'];
  testId: string;
}) {
  return (
    <>
      <Copyable label="Calling webhook" value={webhook.callHook} testId={`${testId}-call-hook`} />
      <Copyable label="Call status webhook" value={webhook.statusHook} testId={`${testId}-status-hook`} />
    </>
  );
}

const voiceSummary = ({
  vendor,
  language,
  voice,
  transferNumber,
  transcribeTransfers,
  keepRecordings,
}: TelephonyView['settings']) =>
  `Speaks ${language} with ${voice ? `the ${vendor} voice ${voice}` : `${vendor}’s default voice`}; ${
    transferNumber
      ? `a call asking for an operator is transferred to +${transferNumber}${transcribeTransfers ? ', transcribed' : ''}.`
      : 'a call asking for an operator stays with the bot.'
  }${keepRecordings ? ' Recordings are kept.' : ''}`;

/**
 * A connected caller number below its header: the webhook addresses to enter in jambonz, at any
 * time, and its voice settings (a form for managers, rendered from the same schema the server
 * parses them with, each wrong value named under its field).
 */
export function TelephonyRow({
  projectId,
  channelId,
  number,
  telephony,
  canManage,
  onSaved,
}: {
  projectId: number;
  channelId: number;
  number: string;
  telephony: TelephonyView;
  canManage: boolean;
  onSaved: () => unknown;
}) {
  const trpc = useTRPC();
  const { settings } = telephony;
  const form = useConnectValues(telephonyVoiceInput, {
    voiceVendor: settings.vendor,
    language: settings.language,
    voice: settings.voice,
    transferNumber: settings.transferNumber ? `+${settings.transferNumber}` : '',
    transcribeTransfers: String(settings.transcribeTransfers),
    keepRecordings: String(settings.keepRecordings),
  });
  const save = useMutation(trpc.channels.update.mutationOptions({ onSuccess: onSaved }));
  return (
    <div className="space-y-3">
      <div className="space-y-2" data-testid="telephony-webhooks">
        <p className="text-slate-600">In jambonz, the application’s webhooks (method POST) are:</p>
        <TelephonyWebhooks webhook={telephony.webhook} testId={`telephony-${channelId}`} />
      </div>
      {canManage ? (
        <div className="space-y-2">
          <p className="font-medium text-slate-700">Voice</p>
          <ConnectForm
            name={`Voice settings of +${number}`}
            idPrefix={`telephony-${channelId}`}
            schema={telephonyVoiceInput}
            values={form.values}
            setValues={form.setValues}
            onSubmit={() => save.mutate({ projectId, kind: 'telephony', channelId, ...form.input })}
            pending={save.isPending}
            error={save.error}
            submitLabel="Save voice settings"
            pendingLabel="Saving…"
          />
          {save.isSuccess && !save.isPending ? (
            <p className="text-emerald-700" role="status">
              Saved.
            </p>
          ) : null}
        </div>
      ) : (
        <p className="text-slate-600" data-testid="telephony-voice">
          {voiceSummary(settings)}
        </p>
      )}
    </div>
  );
}
