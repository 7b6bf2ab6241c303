-- CreateTable
CREATE TABLE "McpServer" (
    "chatflowId" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "toolName" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL DEFAULT '',
    "tokenHint" TEXT NOT NULL DEFAULT '',
    "allowedOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpServer_pkey" PRIMARY KEY ("chatflowId")
);

-- AddForeignKey
ALTER TABLE "McpServer" ADD CONSTRAINT "McpServer_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
