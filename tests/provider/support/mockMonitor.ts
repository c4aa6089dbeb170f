import * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";

/** One resource as Pulumi's mock monitor is asked to register it. */
export interface Registration {
  type: string;
  name: string;
  parent: string;
  dependsOn: string[];
  secretOutputs: string[];
  inputs: Record<string, unknown>;
  /** Where the program declared the resource, as Pulumi recorded it. */
  declaredAt: string | undefined;
}

/** Records each registration the mock monitor receives into `into` (until `sinon.restore()`). */
export function recordRegistrations(into: Registration[]): void {
  const monitor = pulumi.runtime.getMonitor() as unknown as {
    registerResource(req: unknown, callback: unknown): void;
  };
  const original = monitor.registerResource.bind(monitor);
  sinon.stub(monitor, "registerResource").callsFake((req: unknown, callback: unknown) => {
    const r = req as {
      getType(): string;
      getName(): string;
      getParent(): string;
      getDependenciesList(): string[];
      getAdditionalsecretoutputsList(): string[];
      getObject(): { toJavaScript(): Record<string, unknown> };
      getSourceposition(): { getUri(): string } | undefined;
    };
    into.push({
      type: r.getType(),
      name: r.getName(),
      parent: r.getParent(),
      dependsOn: r.getDependenciesList(),
      secretOutputs: r.getAdditionalsecretoutputsList(),
      inputs: r.getObject().toJavaScript(),
      declaredAt: r.getSourceposition()?.getUri(),
    });
    original(req, callback);
  });
}
