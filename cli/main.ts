import { createLogger, setRootLogger } from '@/server/log';
import { main } from './index';

// A command's output is its stdout (JUnit XML, an exported schema): the server's log lines go to stderr.
setRootLogger(createLogger({ destination: 2 }));
main(process.argv).then((code) => process.exit(code));
