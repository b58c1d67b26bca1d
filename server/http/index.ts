export { blockedReason } from './address-policy';
export { getSafeHttpConfig, type SafeHttpConfig } from './config';
export { SafeHttpError, type SafeHttpErrorCode } from './errors';
export { type SafeFetchInit, type SafeResponse, safeFetch } from './safe-fetch';
