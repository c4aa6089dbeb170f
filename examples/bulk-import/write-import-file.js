#!/usr/bin/env node
// Writes the Pulumi import file of a project made outside Pulumi, from the package's lookups:
//
//   CLOUDDB_API_KEY=... node write-import-file.js <projectId> > import.json
//   pulumi import --file import.json --out program.yaml
//
// It lists what a team makes by hand: the project; each branch but the default one (the project
// holds that), with its computes, and the roles and databases made on it (not those a branch
// takes from its parent when it is made); and the project's snapshots taken by hand. Each resource
// is named after the object (`feature-1`, `feature-1-app`, ...) and has the id `pulumi import` takes
// for its kind. The file goes to standard output; what it leaves out, and why, to standard error.
const clouddb = require("pulumi-clouddb");

/** A name for the program: the object's own, with what a resource name cannot hold made `-`. */
const nameOf = (...parts) => parts.join("-").replace(/[^A-Za-z0-9_-]+/g, "-");

async function importFile(projectId) {
  const { project } = await clouddb.getProject({ projectId });
  const { branches } = await clouddb.getBranches({ projectId });
  const { endpoints } = await clouddb.getEndpoints({ projectId });
  const { snapshots } = await clouddb.getSnapshots({ projectId });
  const resources = [{ type: "clouddb:index:Project", name: nameOf(project.name), id: projectId }];
  const names = new Map(branches.map((b) => [b.id, b.name]));
  /** What a branch has by name (roles, databases), to tell what was made on a child from what it took from its parent. */
  const onBranch = async (branchId) => {
    const [{ roles }, { databases }] = await Promise.all([
      clouddb.getRoles({ projectId, branchId }),
      clouddb.getDatabases({ projectId, branchId }),
    ]);
    return {
      roles: new Set(roles.map((r) => r.name)),
      databases: new Set(databases.map((d) => d.name)),
      list: { roles, databases },
    };
  };
  for (const branch of branches) {
    if (branch.default) {
      process.stderr.write(
        `left out: branch ${branch.name} (${branch.id}), the project's default branch, which the Project holds\n`,
      );
      continue;
    }
    const branchName = nameOf(branch.name);
    resources.push({ type: "clouddb:index:Branch", name: branchName, id: `${projectId}/${branch.id}` });
    const computes = endpoints.filter((e) => e.branchId === branch.id);
    for (const [i, e] of computes.entries()) {
      const name = nameOf(branchName, computes.length === 1 ? "compute" : `compute-${i + 1}`);
      resources.push({ type: "clouddb:index:Endpoint", name, id: `${projectId}/${e.id}` });
    }
    const own = await onBranch(branch.id);
    const parent = branch.parentId === undefined ? undefined : await onBranch(branch.parentId);
    for (const role of own.list.roles) {
      if (role.protected || parent?.roles.has(role.name)) continue;
      resources.push({
        type: "clouddb:index:Role",
        name: nameOf(branchName, role.name),
        id: `${projectId}/${branch.id}/${role.name}`,
      });
    }
    for (const database of own.list.databases) {
      if (parent?.databases.has(database.name)) continue;
      resources.push({
        type: "clouddb:index:Database",
        name: nameOf(branchName, database.name),
        id: `${projectId}/${branch.id}/${database.name}`,
      });
    }
  }
  for (const snapshot of snapshots) {
    if (!snapshot.manual) continue;
    const of = names.get(snapshot.sourceBranchId) ?? "snapshot";
    resources.push({
      type: "clouddb:index:Snapshot",
      name: nameOf(of, snapshot.name),
      id: `${projectId}/${snapshot.id}`,
    });
  }
  return { resources };
}

const [projectId] = process.argv.slice(2);
if (projectId === undefined) {
  process.stderr.write("usage: node write-import-file.js <projectId> > import.json\n");
  process.exit(2);
}
importFile(projectId).then(
  (file) => process.stdout.write(`${JSON.stringify(file, null, 2)}\n`),
  (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
