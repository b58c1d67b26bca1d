export { blockedReason, isIpLiteral, stripBrackets } from './address-policy';
export { getSafeHttpConfig, type SafeHttpConfig } from './config';
export { SafeHttpError, type SafeHttpErrorCode } from './errors';
export { jsonInit } from './json-body';
export {
  type SafeFetchInit,
  type SafeResponse,
  type SafeStreamResponse,
  safeFetch,
  safeFetchStream,
} from './safe-fetch';
