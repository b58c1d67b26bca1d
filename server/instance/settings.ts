import type { SignUpMode, SignUpPolicy } from '@/lib/instance/sign-up';
import { defaultSignUpMode } from '@/lib/instance/sign-up';
import { getEnv, isServerMode } from '@/server/config/env';
import type { Db } from '@/server/db/client-type';
import type { SignUpMode as StoredMode } from '@/server/db/generated/client';

/** The instance's one settings row. */
export const SETTINGS_ID = 1;

const fromStored = (mode: StoredMode): SignUpMode => (mode === 'invite_only' ? 'invite-only' : mode);
const toStored = (mode: SignUpMode): StoredMode => (mode === 'invite-only' ? 'invite_only' : mode);

/** The sign-up mode in force and where it comes from: BLOCKBOT_SIGNUP, else the admin's choice, else the default. */
export async function signUpPolicy(db: Db): Promise<SignUpPolicy> {
  const env = getEnv();
  if (env.BLOCKBOT_SIGNUP) return { mode: env.BLOCKBOT_SIGNUP, source: 'env' };
  const settings = await db.instanceSettings.findUnique({
    where: { id: SETTINGS_ID },
    select: { signUp: true },
  });
  if (settings?.signUp) return { mode: fromStored(settings.signUp), source: 'setting' };
  return { mode: defaultSignUpMode(isServerMode(env)), source: 'default' };
}

/** Stores the admin's choice; BLOCKBOT_SIGNUP, when set, still wins (the caller refuses the change). */
export async function storeSignUpMode(db: Db, mode: SignUpMode): Promise<void> {
  await db.instanceSettings.upsert({
    where: { id: SETTINGS_ID },
    create: { id: SETTINGS_ID, signUp: toStored(mode) },
    update: { signUp: toStored(mode) },
  });
}
