import { z } from 'zod';
import { column } from './columns';
import { PreparedStatement } from './raw-sql';

/**
 * Whether the project's bot may answer a pressed button itself (a formula or expression that
 * calls tg_callback_url_open): its presses are then answered after the flow, not before it.
 */
export const answersCallbacksItself = new PreparedStatement(
  `SELECT EXISTS (
     SELECT 1 FROM "Block" WHERE "projectId" = $projectId::int
       AND (strpos(formula, 'tg_callback_url_open') > 0 OR strpos(coalesce(trigger::text, ''), 'tg_callback_url_open') > 0)
   ) OR EXISTS (
     SELECT 1 FROM "Arrow" WHERE "projectId" = $projectId::int AND strpos(settings::text, 'tg_callback_url_open') > 0
   ) AS itself`,
  z.object({ itself: column.bool }),
);
