/**
 * The CDK app (`cdk.json` runs it with tsx). Synthesizes offline: everything comes from
 * infra/config.ts and the route and worker tables, nothing from the environment or an account.
 */
import { App } from 'aws-cdk-lib';
import { infraConfig } from './config.js';
import { routeNotFoundRoute, routes } from '../lib/api/routes.js';
import { buildPromoEngineApp } from './stacks/promo-engine-app.js';
import { workers } from '../lib/api/workers.js';

const app = new App();
buildPromoEngineApp(app, { config: infraConfig, routes, routeNotFoundRoute, workers });
