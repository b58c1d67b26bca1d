/**
 * A bot's references to a project's own rows by id, pointed at the rows an import made of
 * them: block actions' CRM stage and lists (lib/schema blockActionsSchema). Ids the archive does
 * not have (a stage or list deleted before the export, which the bot already skipped) are
 * dropped. Works on the stored JSON as it is, so a version published by an older build moves
 * unchanged apart from these ids.
 */

export interface BotIdMaps {
  state: ReadonlyMap<number, number>;
  list: ReadonlyMap<number, number>;
}

type Json = unknown;

export function remapBotIds<T>(schema: T, maps: BotIdMaps): T {
  const bot = schema as { blocks?: Json };
  if (!bot || typeof bot !== 'object' || !Array.isArray(bot.blocks)) return schema;
  return { ...bot, blocks: bot.blocks.map((block) => remapBlock(block, maps)) } as T;
}

function remapBlock(block: Json, maps: BotIdMaps): Json {
  const actions = (block as { actions?: Record<string, Json> } | null)?.actions;
  if (!actions || typeof actions !== 'object') return block;
  const lists = (ids: Json) =>
    Array.isArray(ids) ? ids.flatMap((id) => (maps.list.has(id) ? [maps.list.get(id)] : [])) : ids;
  const { crmStateId, ...rest } = actions;
  const state = typeof crmStateId === 'number' ? maps.state.get(crmStateId) : undefined;
  return {
    ...(block as object),
    actions: {
      ...rest,
      ...(state !== undefined ? { crmStateId: state } : {}),
      ...('addToLists' in actions ? { addToLists: lists(actions.addToLists) } : {}),
      ...('removeFromLists' in actions ? { removeFromLists: lists(actions.removeFromLists) } : {}),
    },
  };
}
