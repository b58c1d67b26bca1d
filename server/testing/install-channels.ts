import { installChannels } from '@/server/channels/registry';

// The db tests' setup (vitest.config.mts): what the runtime does at a process's start, the
// channels' adapters and in-flow functions handed to the engine, which imports no channel.
installChannels();
