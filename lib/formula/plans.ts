/**
 * A project's plans (Settings, Plan). A self-hosted install bills nothing: a plan only decides
 * which built-ins a formula may call (in-flow functions need business or AI, lib/formula/catalogue.ts).
 */
export const PLANS = ['free', 'business', 'ai'] as const;
export type Plan = (typeof PLANS)[number];
