# CI's machine: a fresh Debian 12 with this repository, running the README's
# test command (which installs what it needs). No GPU: the GPU tests skip.
#   docker build -t imeta-ci . && docker run --rm imeta-ci
FROM debian:12
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . /src
CMD ["bash", ".ci/run"]
