// Projects, branches, computes, roles, databases and API keys of the Cloud Database Control API v2.
package clouddb
