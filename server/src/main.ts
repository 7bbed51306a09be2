import { buildApp } from './app';
import { ConfigRefusal, loadConfig } from './config';

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Dental Clinic is running on http://${config.host}:${config.port} (${
      config.databaseUrl ? 'PostgreSQL server' : `embedded database in ${config.dataDir}`
    })`,
  );
}

main().catch((error: unknown) => {
  // A refused configuration says what to set; anything else is a fault, with its stack.
  console.error(error instanceof ConfigRefusal ? error.message : error);
  process.exit(1);
});
