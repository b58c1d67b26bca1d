import { main } from './index';

main(process.argv).then((code) => process.exit(code));
