import { resultOf } from '@/lib/channels/operation-result';
import type { ChatappTestApp } from '../../chatapp/testing/chatapp-test-app';
import type { connectTelephonyChannel } from '../channel-service';
import type { FakeJambonz } from './fake-jambonz';

/**
 * Connects a number of the fake gateway's account to the project through the web app's API, as
 * an owner does on the Channels tab; `settings`: the form's other fields (voice, transfer number).
 */
export async function connectNumber(
  app: Pick<ChatappTestApp, 'owner'>,
  projectId: number,
  fake: FakeJambonz,
  callerNumber: string,
  settings: object = {},
) {
  return resultOf<typeof connectTelephonyChannel>(
    await app.owner.channels.connect({
      kind: 'telephony',
      projectId,
      apiUrl: fake.url,
      accountSid: fake.account.accountSid,
      apiKey: fake.account.apiKey,
      applicationSid: fake.account.applicationSid,
      webhookSecret: fake.account.webhookSecret,
      callerNumber,
      ...settings,
    }),
  )!;
}
