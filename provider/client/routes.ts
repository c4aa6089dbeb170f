/**
 * The client's route modules, one per object family of `api/`, by name: the one list of them.
 * `createClient` binds every route of each into a method, and `CloudDbClient`'s methods are derived
 * from their types, so a new family is its module plus one line here.
 */
import * as account from "./api/account";
import * as advisors from "./api/advisors";
import * as anonymization from "./api/anonymization";
import * as apiKeys from "./api/apiKeys";
import * as auth from "./api/auth";
import * as branches from "./api/branches";
import * as buckets from "./api/buckets";
import * as consumption from "./api/consumption";
import * as credentials from "./api/credentials";
import * as dataApi from "./api/dataApi";
import * as databases from "./api/databases";
import * as endpoints from "./api/endpoints";
import * as functions from "./api/functions";
import * as operations from "./api/operations";
import * as organizations from "./api/organizations";
import * as permissions from "./api/permissions";
import * as projectMembers from "./api/projectMembers";
import * as projects from "./api/projects";
import * as roles from "./api/roles";
import * as snapshots from "./api/snapshots";
import * as vpc from "./api/vpc";

/** Every route module, named as its file in `api/`. */
export const ROUTE_MODULES = {
  account,
  advisors,
  anonymization,
  apiKeys,
  auth,
  branches,
  buckets,
  consumption,
  credentials,
  dataApi,
  endpoints,
  functions,
  databases,
  operations,
  organizations,
  permissions,
  projectMembers,
  projects,
  roles,
  snapshots,
  vpc,
} as const;

/** The name of a route module (its file in `api/`). */
export type RouteModuleName = keyof typeof ROUTE_MODULES;
