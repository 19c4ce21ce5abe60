import { startDemoSite } from './src/cli/demo-site.ts';
const site = await startDemoSite();
process.stdout.write(site.startUrl + '\n');
await new Promise(r => setTimeout(r, 90000));
await site.close();
