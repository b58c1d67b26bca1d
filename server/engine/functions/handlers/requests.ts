import type { AreaHandlers, InFlowCall } from '../registry';
import { callRequestFunction, type RequestFunction } from '../requests';

const request =
  (name: RequestFunction) =>
  ({ run, args, note }: InFlowCall) =>
    callRequestFunction(name, args, run.http, note);

/** requests_get/post/put/patch/delete: HTTP calls through the run's client (`server/http/`). */
export const requestHandlers = {
  requests_get: request('requests_get'),
  requests_post: request('requests_post'),
  requests_put: request('requests_put'),
  requests_patch: request('requests_patch'),
  requests_delete: request('requests_delete'),
} satisfies AreaHandlers;
