# Summary Bot image. Build and run it with `docker compose up -d --build` (see compose.yaml and
# the README's "Deploying" section). The install steps live in scripts/install.sh, which CI
# (.ci/run) also runs in a fresh virtual environment: this machine's CI has no Docker engine.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# The bot runs as an unprivileged user with a fixed uid (for volume permissions).
RUN groupadd --gid 10001 summarybot \
 && useradd --uid 10001 --gid 10001 --create-home --shell /usr/sbin/nologin summarybot

WORKDIR /app

# The install needs the whole source tree (pyproject.toml, README.md, the packages), so it is
# one copy and one install; .dockerignore keeps tests, caches, databases and .env out.
COPY . /app
RUN bash scripts/install.sh /app \
 && rm -rf /app/build /app/*.egg-info

# SQLite by default, in /data: mount a volume there (`-v summarybot-data:/data`); a new named
# volume takes this directory's owner. compose.yaml points SUMMARYBOT_DATABASE_URL at its
# PostgreSQL service instead, and then /data stays unused.
RUN mkdir -p /data && chown summarybot:summarybot /data
# Health and metrics listen on 127.0.0.1 unless told otherwise; in a container they must
# listen on every interface so Docker can map the port (compose.yaml maps it to the
# host's 127.0.0.1 only).
ENV SUMMARYBOT_DATABASE_URL=sqlite:////data/summarybot.db \
    SUMMARYBOT_HEALTH_PORT=8080 \
    SUMMARYBOT_HEALTH_HOST=0.0.0.0

USER summarybot

# 3000: the Slack HTTP Events API (only with SLACK_SIGNING_SECRET; Socket Mode needs no port).
# 8080: health and metrics (GET /healthz), on SUMMARYBOT_HEALTH_PORT.
EXPOSE 3000 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('SUMMARYBOT_HEALTH_PORT', '8080') + '/healthz', timeout=4)" || exit 1

# Migrations run on start: `summarybot run` opens the database first, and opening it applies
# any pending migration (from the installed `migrations` package).
# Python turns SIGINT into a clean shutdown (scheduler and platform connections stopped), so
# `docker stop` sends SIGINT.
STOPSIGNAL SIGINT
CMD ["summarybot", "run"]
