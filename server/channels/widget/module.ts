import type { ChannelEndpoint, ChannelModule } from '../channel-module';
import { widgetChannel } from './adapter';
import { handleWidgetRequest } from './http';

/** widget.js's endpoints, `/api/channels/widget/<key>/<action>` (http.ts). */
const endpoint: ChannelEndpoint = async (req, key, path) => handleWidgetRequest(req, key, path.join('/'));

export const widgetModule: ChannelModule = {
  kind: 'widget',
  adapter: widgetChannel,
  endpoints: { GET: endpoint, POST: endpoint, OPTIONS: endpoint },
};
