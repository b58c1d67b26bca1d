ALTER TYPE "ChannelKind" ADD VALUE 'viber';
