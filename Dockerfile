# syntax=docker/dockerfile:1
# CIL Lab's command line in a container, for sweeps on batch engines (docs/sweeps.md):
#   docker build -t cil-lab .
#   docker run --rm cil-lab --help
#   docker run --rm -v "$PWD/out:/results" cil-lab sweep --dataset fashion-mnist --classes 0-5 --tasks 3 \
#     --orderings all --shard 0/4 --out /results/shard-0.jsonl
#
# Debian bookworm, because the built-in data is prepared from Debian packages (scripts/prepare-data.mjs:
# `apt-get download` + `dpkg -x` of dataset-fashion-mnist and python3-sklearn, no package is installed) and npm
# packages (WordNet, emoji sets, wasm runtimes). Node 20 (package.json engines: >= 20.19).
FROM node:20-bookworm

WORKDIR /app

# dependencies first, so they are cached while only the sources change. ONNXRUNTIME_NODE_INSTALL=skip skips
# onnxruntime-node's GPU download (its CPU binaries are bundled; Node 20's npm 10 runs install scripts, which npm 11
# leaves to package.json's allowScripts). Dev dependencies are needed: the CLI runs the TypeScript sources through
# tsx (bin/cil-lab.mjs), and the data scripts use the emoji and WordNet packages.
COPY package.json package-lock.json .npmrc ./
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci

# the project (.dockerignore keeps out node_modules, builds, test output and the prepared data)
COPY . .

# the built-in data under public/data/, made once at build time; the .deb cache is dropped afterwards
RUN apt-get update -qq \
 && npm run prepare-data \
 && rm -rf /var/lib/apt/lists/* node_modules/.cache/cil-lab \
 && node bin/cil-lab.mjs count --classes 6 --tasks 3

# the shard files go to a mounted folder; the image itself is read-only to the CLI (tsx caches in /tmp)
RUN mkdir -p /results && chown node:node /results
VOLUME /results
USER node

ENTRYPOINT ["node", "/app/bin/cil-lab.mjs"]
CMD ["--help"]
