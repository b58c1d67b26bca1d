import nodemailer from 'nodemailer';
import { type Env, getEnv } from '@/server/config/env';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Mail is sent only when the self-hoster configured a mail server. */
export const mailConfigured = (env: Env = getEnv()): boolean => env.BLOCKBOT_SMTP_URL !== undefined;

/**
 * Sends one message through the configured SMTP server. The server is the self-hoster's own
 * (from the environment, like DATABASE_URL), often on their network, so the outgoing address
 * policy of server/http (for hosts a project's members type in) does not apply; timeouts do.
 * Errors name the server's host but never its credentials.
 */
export async function sendMail(mail: OutgoingMail, env: Env = getEnv()): Promise<void> {
  const url = env.BLOCKBOT_SMTP_URL;
  if (!url || !env.BLOCKBOT_MAIL_FROM) throw new Error('No mail server is configured (BLOCKBOT_SMTP_URL).');
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    await transport.sendMail({ from: env.BLOCKBOT_MAIL_FROM, ...mail });
  } catch (error) {
    const host = new URL(url).host;
    throw new MailError(`The mail server ${host} did not take the message: ${describe(error)}`);
  } finally {
    transport.close();
  }
}

export class MailError extends Error {}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  // nodemailer's messages can quote the server's reply, never the URL's password.
  return error.message.split('\n')[0].slice(0, 300);
}
