import { z } from "zod";
import type { DataApiSettings as ApiSettings, CloudDbClient } from "../client";
import { ConflictError, NotFoundError } from "../client/errors";
import { unfinished } from "./errors";
import { hostLine } from "./host/progress";
import { idInput, optionalText, ProjectOfBranchInput } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { compact, defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  DATA_API,
  DATA_API_AUTH_PROVIDER,
  type DataApiInputs,
  type DataApiOutputs,
  type DataApiSettings,
} from "./public/dataApi";

export type { DataApiInputs, DataApiOutputs } from "./public/dataApi";

// ---------------------------------------------------------------- inputs

const count = (what: string) =>
  z
    .number({ error: `settings.${what} must be a whole number, 0 or more` })
    .int(`settings.${what} must be a whole number, 0 or more`)
    .min(0, `settings.${what} must be a whole number, 0 or more`)
    .optional();
const flag = (what: string) => z.boolean({ error: `settings.${what} must be true or false` }).optional();
const text = (what: string) => z.string({ error: `settings.${what} must be a string` }).optional();

const SettingsInput = z.object({
  dbAggregatesEnabled: flag("dbAggregatesEnabled"),
  dbAnonRole: text("dbAnonRole"),
  dbExtraSearchPath: text("dbExtraSearchPath"),
  dbMaxRows: count("dbMaxRows"),
  dbSchemas: z
    .array(z.string(), { error: "settings.dbSchemas must be a list of schema names" })
    .min(1, 'settings.dbSchemas must name at least one schema (the default is ["public"])')
    .optional(),
  jwtRoleClaimKey: text("jwtRoleClaimKey"),
  jwtCacheMaxLifetime: count("jwtCacheMaxLifetime"),
  openapiMode: z
    .string({ error: 'settings.openapiMode is "ignore-privileges" or "disabled"' })
    .refine(
      (mode) => ["ignore-privileges", "disabled"].includes(mode),
      'settings.openapiMode is "ignore-privileges" or "disabled"',
    )
    .optional(),
  serverCorsAllowedOrigins: text("serverCorsAllowedOrigins"),
  serverTimingEnabled: flag("serverTimingEnabled"),
});

/** Inputs as the provider sees them. */
export const DataApiInputsSchema = z
  .object({
    projectId: ProjectOfBranchInput,
    branchId: idInput("branchId", "branch", "the branch of the database (br-...)"),
    databaseName: z
      .string({ error: "databaseName must name a database of the branch" })
      .min(1, "databaseName must name a database of the branch"),
    authProvider: z
      .enum(DATA_API_AUTH_PROVIDER.enum, {
        error: `authProvider is one of ${DATA_API_AUTH_PROVIDER.enum.join(", ")}`,
      })
      .optional(),
    jwksUrl: z
      .string({ error: "jwksUrl must be the HTTPS URL of a JSON Web Key Set" })
      .refine(
        (url) => /^https:\/\/[^\s/]+/.test(url),
        "jwksUrl must be an HTTPS URL: the service fetches keys from it",
      )
      .optional(),
    providerName: optionalText("providerName"),
    jwtAudience: optionalText("jwtAudience"),
    addDefaultGrants: z.boolean({ error: "addDefaultGrants must be true or false" }).optional(),
    skipAuthSchema: z.boolean({ error: "skipAuthSchema must be true or false" }).optional(),
    settings: SettingsInput.optional(),
  })
  .superRefine((inputs, ctx) => {
    if (inputs.authProvider === "external" && inputs.jwksUrl === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["jwksUrl"],
        message: "authProvider external needs jwksUrl: the HTTPS URL of the provider's JSON Web Key Set",
      });
    if (inputs.authProvider === "neon_auth" && inputs.jwksUrl !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["jwksUrl"],
        message: "jwksUrl is for authProvider external; neon_auth uses the branch's own Auth keys",
      });
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof DataApiInputsSchema>, DataApiInputs>;

// ---------------------------------------------------------------- settings, both ways

/** Each setting's name in the inputs and in the API. */
const NAMES = {
  dbAggregatesEnabled: "db_aggregates_enabled",
  dbAnonRole: "db_anon_role",
  dbExtraSearchPath: "db_extra_search_path",
  dbMaxRows: "db_max_rows",
  dbSchemas: "db_schemas",
  jwtRoleClaimKey: "jwt_role_claim_key",
  jwtCacheMaxLifetime: "jwt_cache_max_lifetime",
  openapiMode: "openapi_mode",
  serverCorsAllowedOrigins: "server_cors_allowed_origins",
  serverTimingEnabled: "server_timing_enabled",
} as const satisfies Record<keyof DataApiSettings, keyof ApiSettings>;

/** The documented defaults: what a setting the program leaves out reads as. */
const DEFAULTS: Partial<Record<keyof DataApiSettings, unknown>> = {
  dbAggregatesEnabled: true,
  dbAnonRole: "anonymous",
  dbSchemas: ["public"],
  jwtRoleClaimKey: ".role",
  openapiMode: "disabled",
};

const keys = Object.keys(NAMES) as (keyof DataApiSettings)[];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The declared settings in the API's names. */
function toApi(settings: DataApiSettings | undefined): ApiSettings {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (settings?.[k] !== undefined) out[NAMES[k]] = settings[k];
  return out as ApiSettings;
}

/**
 * The settings the API reports, as inputs: those the program declared, and any other that differs
 * from its default (a change made outside Pulumi), so a refresh shows drift and nothing else.
 */
function fromApi(
  api: ApiSettings | undefined,
  declared: DataApiSettings | undefined,
): DataApiSettings | undefined {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const value = (api as Record<string, unknown> | undefined)?.[NAMES[k]];
    if (declared?.[k] !== undefined || (value !== undefined && !same(value, DEFAULTS[k]))) out[k] = value;
  }
  return declared === undefined && Object.keys(out).length === 0
    ? undefined
    : (compact(out) as DataApiSettings);
}

// ---------------------------------------------------------------- API calls

/**
 * The Data API on a branch's database (docs/api-rules.md §24): one per database, so a create the
 * service refuses because the database has one already (a run killed after its create) takes it and
 * applies the declared settings, and says so. Its settings change in place with the PATCH (which
 * replaces them whole); its authentication does not, so changing it replaces the Data API. None of
 * its routes starts an operation.
 */
export const dataApiDefinition = defineResource<DataApiInputs, DataApiOutputs>(DATA_API, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: DataApiInputsSchema,
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.databaseName}`,
  // A create that did not finish (no URL read yet): the next `up` applies the settings and reads it.
  stale: (olds) => olds.url === "",

  async create({ client }, inputs) {
    const { projectId, branchId, databaseName } = inputs;
    try {
      await client.createDataApi(projectId, branchId, databaseName, {
        ...(inputs.authProvider === undefined ? {} : { auth_provider: inputs.authProvider }),
        ...(inputs.jwksUrl === undefined ? {} : { jwks_url: inputs.jwksUrl }),
        ...(inputs.providerName === undefined ? {} : { provider_name: inputs.providerName }),
        ...(inputs.jwtAudience === undefined ? {} : { jwt_audience: inputs.jwtAudience }),
        ...(inputs.addDefaultGrants === undefined ? {} : { add_default_grants: inputs.addDefaultGrants }),
        ...(inputs.skipAuthSchema === undefined ? {} : { skip_auth_schema: inputs.skipAuthSchema }),
        ...(inputs.settings === undefined ? {} : { settings: toApi(inputs.settings) }),
      });
    } catch (err) {
      if (!(err instanceof ConflictError) || !/already enabled/.test(err.message)) throw err;
      hostLine(
        `database ${databaseName} on branch ${branchId} already has the Data API: this resource takes it, applies its ` +
          "settings, and disables it when destroyed",
      );
      return recordedIfFailing(inputs, async () => {
        await client.updateDataApi(projectId, branchId, databaseName, { settings: toApi(inputs.settings) });
        return outputsOf(client, inputs);
      });
    }
    return recordedIfFailing(inputs, () => outputsOf(client, inputs));
  },

  async readExisting({ client }, inputs) {
    const api = await client.getDataApi(inputs.projectId, inputs.branchId, inputs.databaseName);
    return outputsOf(client, { ...inputs, settings: fromApi(api.settings, undefined) });
  },

  /** The Data API as the database has it; disabled elsewhere (or its database gone), it is gone. */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    try {
      const api = await client.getDataApi(props.projectId, props.branchId, props.databaseName);
      return compact({
        ...props,
        url: api.url,
        status: api.status,
        settings: fromApi(api.settings, props.settings),
      }) as DataApiOutputs;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  },

  /** New settings are one PATCH, which replaces them whole: one removed reads as its default again. */
  async update({ client }, _id, outs) {
    await client.updateDataApi(outs.projectId, outs.branchId, outs.databaseName, {
      settings: toApi(outs.settings),
    });
    return outputsOf(client, outs);
  },

  async remove({ client }, _id, props) {
    await client.deleteDataApi(props.projectId, props.branchId, props.databaseName);
  },
});

/**
 * The steps of a create after the Data API exists (enabled, or taken): when one fails, it is recorded
 * (a partial failure) rather than left enabled outside the state; the next `up` applies the settings
 * and reads it again.
 */
async function recordedIfFailing(
  inputs: DataApiInputs,
  steps: () => Promise<DataApiOutputs>,
): Promise<DataApiOutputs> {
  try {
    return await steps();
  } catch (err) {
    const outs: DataApiOutputs = {
      ...declaredInputs<DataApiInputs>(DataApiInputsSchema, inputs),
      projectId: inputs.projectId,
      branchId: inputs.branchId,
      databaseName: inputs.databaseName,
      url: "",
      status: "",
    };
    throw unfinished(
      "Data API",
      `${inputs.projectId}/${inputs.branchId}/${inputs.databaseName}`,
      inputs,
      outs,
      err,
    );
  }
}

/** The outputs of the Data API the inputs name, read back from the service. */
async function outputsOf(client: CloudDbClient, inputs: DataApiInputs): Promise<DataApiOutputs> {
  const api = await client.getDataApi(inputs.projectId, inputs.branchId, inputs.databaseName);
  return {
    ...declaredInputs<DataApiInputs>(DataApiInputsSchema, inputs),
    projectId: inputs.projectId,
    branchId: inputs.branchId,
    databaseName: inputs.databaseName,
    url: api.url,
    status: api.status,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(dataApiDefinition);
