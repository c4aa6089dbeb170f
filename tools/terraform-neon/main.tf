terraform {
  required_providers {
    neon = {
      source  = "kislerdm/neon"
      version = "__VERSION__"
    }
  }
}

provider "neon" {}

resource "neon_project" "shop" {
  name      = "shop"
  region_id = "aws-us-east-2"
}

resource "neon_branch" "dev" {
  project_id = neon_project.shop.id
  parent_id  = neon_project.shop.default_branch_id
  name       = "dev"
}

resource "neon_endpoint" "dev" {
  project_id = neon_project.shop.id
  branch_id  = neon_branch.dev.id
  type       = "read_write"
}

resource "neon_role" "app" {
  project_id = neon_project.shop.id
  branch_id  = neon_branch.dev.id
  name       = "app"
}

resource "neon_database" "app" {
  project_id = neon_project.shop.id
  branch_id  = neon_branch.dev.id
  name       = "app"
  owner_name = neon_role.app.name
}

resource "neon_project_permission" "ada" {
  project_id = neon_project.shop.id
  grantee    = "ada@example.com"
}

resource "neon_api_key" "ci" {
  name = "ci"
}
