/** The Pulumi CLI found or built, and a PATH value that reaches it, its language host and the dynamic-provider plugin. */
export interface PulumiCli {
  path: string;
  binary: string;
  version: string;
}
/** Finds `pulumi` >= 3 on PATH or builds it from Go modules (tools/pulumi-cli/build.sh). */
export function ensurePulumiCli(): PulumiCli;
/** The environment with Pulumi's update checks and plugin downloads turned off. */
export function quietEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
