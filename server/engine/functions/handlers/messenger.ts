import { isSimulatedType } from '@/lib/channels/descriptors';
import type { Value } from '@/lib/formula';
import { channelFor } from '@/server/engine/channel-port';
import type { InFlowHandler } from '../registry';
import { jsonToValue, valueToJson } from '../values';

/**
 * A function a messenger's adapter carries out (`ChannelAdapter.call`), through the client's
 * channel: the simulator's client reaches the simulator, which records it; a client of
 * `messenger` reaches that adapter, which uses the client's own bot. A client of another
 * messenger reaches `messenger`'s adapter, which uses the project's bot there.
 */
export function messengerFunction(messenger: number): InFlowHandler {
  return async ({ run, name, args }) => {
    if (run.testRun) return jsonToValue(await run.testRun.messenger(name, args.map(valueToJson)));
    const { clientType } = run.client;
    const adapter = channelFor(isSimulatedType(clientType) ? clientType : messenger);
    const result = await adapter.call(
      run.project.id,
      name,
      { args: args.map(valueToJson), clientId: run.client.id },
      { db: run.db },
    );
    return result instanceof Map ? (result as Value) : jsonToValue(result);
  };
}
