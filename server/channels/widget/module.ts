import { widgetClientView } from '@/lib/widget/client-view';
import { type ChannelEndpoint, type ChannelModule, channelOperation } from '../channel-module';
import { widgetChannel } from './adapter';
import {
  createWidgetChannel,
  createWidgetInput,
  updateWidgetInput,
  updateWidgetSettings,
  widgetView,
} from './channel-service';
import { handleWidgetRequest } from './http';

/** widget.js's endpoints, `/api/channels/widget/<key>/<action>` (http.ts). */
const endpoint: ChannelEndpoint = async (req, key, path) => handleWidgetRequest(req, key, path.join('/'));

/** The kind this folder is, and what the Channels tab shows of its channels (channel-view.ts). */
export const kind = 'widget';
export const view = widgetView;

export const channelModule = {
  kind,
  adapter: widgetChannel,
  clientView: widgetClientView,
  // Creating a widget is its connecting: a new key and its settings.
  connect: channelOperation(createWidgetInput, createWidgetChannel),
  update: channelOperation(updateWidgetInput, updateWidgetSettings),
  endpoints: { GET: endpoint, POST: endpoint, OPTIONS: endpoint },
} satisfies ChannelModule;
