'use client';

import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Card, CardTitle } from '@/components/ui/card';
import { connectTelephonyInput } from '@/lib/channels/connect-inputs';
import { resultOf } from '@/lib/channels/operation-result';
import type { connectTelephonyChannel } from '@/server/channels/telephony/channel-service';
import { ConnectForm, useConnectValues } from '../connect-form';
import { TelephonyRow, type TelephonyView, TelephonyWebhooks } from './telephony-row';

/**
 * Telephony on a jambonz gateway (docs/channels/telephony.md): the form that connects it, then
 * the two webhook addresses to enter in the jambonz application; and the connected caller
 * numbers, each row's header given by the Channels tab (`header`), then its webhook addresses
 * and voice settings (`TelephonyRow`).
 */
export function TelephonyCard<C extends { id: number; groupId: string; telephony: TelephonyView }>({
  projectId,
  canManage,
  channels,
  header,
  onChanged,
}: {
  projectId: number;
  canManage: boolean;
  channels: C[] | undefined;
  header: (channel: C) => ReactNode;
  onChanged: () => unknown;
}) {
  const trpc = useTRPC();
  const form = useConnectValues(connectTelephonyInput);
  const connect = useMutation(
    trpc.channels.connect.mutationOptions({
      onSuccess: () => {
        form.reset();
        return onChanged();
      },
    }),
  );
  const connected = resultOf<typeof connectTelephonyChannel>(connect.data);
  return (
    <Card>
      <CardTitle description="Voice calls through your jambonz gateway: blocks are spoken, buttons become keys to press.">
        Telephony
      </CardTitle>
      {channels?.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="telephony-empty">
          No caller number is connected.{canManage ? '' : ' An owner or admin of the project connects one.'}
        </p>
      ) : null}
      <ul className="divide-y divide-slate-100">
        {channels?.map((channel) => (
          <li key={channel.id} className="space-y-2 py-3 text-sm" data-testid="telephony-row">
            {header(channel)}
            <TelephonyRow
              projectId={projectId}
              channelId={channel.id}
              number={channel.groupId}
              telephony={channel.telephony}
              canManage={canManage}
              onSaved={onChanged}
            />
          </li>
        ))}
      </ul>
      {canManage ? (
        <div className="mt-4 space-y-3">
          <p className="text-sm text-slate-600">
            The API key and the webhook secret are checked with jambonz, stored encrypted and never shown
            again.
          </p>
          <ConnectForm
            name="Connect a jambonz gateway"
            idPrefix="telephony"
            schema={connectTelephonyInput}
            values={form.values}
            setValues={form.setValues}
            onSubmit={() => connect.mutate({ projectId, kind: 'telephony', ...form.input })}
            pending={connect.isPending}
            error={connect.error}
            submitLabel="Connect the gateway"
          />
          {connected ? (
            <div
              className="space-y-2 rounded-md bg-emerald-50 p-3 text-sm"
              data-testid="telephony-webhook-setup"
            >
              <p className="font-medium text-emerald-900">
                +{connected.groupId} is connected. Last step: in jambonz, set the application’s webhooks
                (method POST) to these addresses.
              </p>
              <TelephonyWebhooks webhook={connected.webhook} testId="telephony-setup" />
            </div>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
