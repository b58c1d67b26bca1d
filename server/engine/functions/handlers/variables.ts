import { serializeValue } from '@/lib/formula';
import type { AreaHandlers } from '../registry';
import { asInt, asString, given } from '../values';
import { requireClient } from './clients';

/** Profile variables (client.<name>) of the client or of another one. */
export const variableHandlers = {
  async get_client_var({ run, args }) {
    const clientId = asInt(args[0], 'client_id');
    const variable = asString(args[1], 'name').replace(/^client\./, '');
    if (clientId === run.client.id) return run.variables.get(`client.${variable}`) ?? null;
    const written = run.variables.ofOtherClient(clientId, `client.${variable}`);
    if (written !== undefined) return written;
    await requireClient(run, clientId);
    // Read outside any transaction: the event holds its client's lease, not the other's.
    const row = await run.db.clientVariable.findUnique({
      where: { clientId_name: { clientId, name: variable } },
    });
    return row?.value ?? null;
  },

  async set_client_var({ run, args }) {
    const clientId = asInt(args[0], 'client_id');
    const variable = `client.${asString(args[1], 'name').replace(/^client\./, '')}`;
    const value = given(args[2]) ? serializeValue(args[2]) : null;
    if (clientId === run.client.id) {
      run.variables.set(variable, value);
      return true;
    }
    await requireClient(run, clientId);
    run.variables.setOfOtherClient(clientId, variable, value);
    return true;
  },
} satisfies AreaHandlers;
