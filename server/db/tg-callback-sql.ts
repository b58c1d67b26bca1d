import { z } from 'zod';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * Whether the project's published bot may answer a pressed button itself (it calls
 * tg_callback_url_open somewhere): its presses are then answered after the flow, not before it.
 */
export const answersCallbacksItself = new PreparedStatement(
  `SELECT EXISTS (
     SELECT 1 FROM "BotVersion" v JOIN "Project" p ON p.id = v."projectId" AND v.number = p."publishedVersion"
     WHERE p.id = $projectId::int AND v."answersCallbacks"
   ) AS itself`,
  z.object({ itself: column.bool }),
);
